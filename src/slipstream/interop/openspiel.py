"""OpenSpiel games: ``register()`` makes every registered game loadable with ``pyspiel``.

>>> import pyspiel
>>> from slipstream.interop.openspiel import register
>>> names = register()                       # ["slipstream_brc_grand_prix", ...]
>>> game = pyspiel.load_game("slipstream_scrap_racer", {"players": 2})

- Each game is ``slipstream_<game id with underscores>``; its parameters are ``players`` and every
  option whose default is a number, a boolean or a string (an option that defaults to ``None``, a
  content file, is left out).
- Chance nodes are OpenSpiel chance nodes with the game's own probabilities; chance outcomes and seat
  actions are numbered by the game's spec (``slipstream.interop.spec``), apart from each other.
- A simultaneous choice becomes sequential moves in seat order. The game is declared
  ``IMPERFECT_INFORMATION``: a seat's observation (``observation_tensor``/``observation_string``, from
  ``view(seat)`` only) never shows the other seats' pending choices or hidden cards. Its perfect-recall
  information state (``information_state_string``/``information_state_tensor``) is what it saw happen:
  its views as they changed and its own actions (``slipstream.interop.recall``), so the CFR family runs.
  ``game.observation_names`` and ``game.information_state_names`` name every slot of the tensors. The
  ``observation`` parameter picks the declared observation (``slipstream.interop.declared``, the default
  where the game declares one), the full one (the default otherwise) or the compact one
  (``slipstream.interop.compact``).
- Utilities are terminal, by the ``reward`` parameter: ``"win"`` (the default) +1 for a winner, -1 for
  every other seat (``GENERAL_SUM``); ``"place"`` linear by finishing place, +1 first to -1 last
  (``ZERO_SUM``). A cooperative game (Highway Heist) pays every seat the team's +1 or -1: ``IDENTICAL``.

Each state holds an immutable engine state, so ``clone`` is cheap; serialization
(``pyspiel.serialize_game_and_state``) writes the match record and replays it. The engine's own seeded
chance is not used here: OpenSpiel (or its caller) picks every chance outcome.
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any, cast

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from slipstream.engine import CHANCE, State, available_games, game_class, load
from slipstream.engine.observation import Buffer
from slipstream.engine.record import replay

from .compact import Encoder, check_observation, default_observation, make_encoder
from .declared import DeclaredEncoder
from .recall import InformationEncoder, Recall, information_string, recall_of, remember
from .spec import (
    PLACE,
    WIN,
    GameSpec,
    Numbering,
    check_reward,
    library_name,
    seat_reward,
    spec_for,
    spec_for_game,
)

JSON = Any
SPARSE_FROM = 256
"""``SlipstreamObserver.as_list`` builds the list of a tensor this long or longer from its nonzero slots."""
GAME_LENGTH_MARGIN = 4
"""``max_game_length`` is this many times the longest game met while the spec was built."""
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_INVALID = int(pyspiel.PlayerId.INVALID)


class _Frozen:
    """Holds a value that ``copy.deepcopy`` (OpenSpiel's clone of a Python state) shares instead of
    copying: an engine state is never changed once made, and a spec never is."""

    __slots__ = ("player", "prefix", "recall", "value")

    def __init__(self, value: Any) -> None:
        self.value = value
        self.recall: Recall | None = None
        """For an engine state: every seat's information state there, once asked for (shared by clones)."""
        self.player: int | None = None
        """For an engine state: OpenSpiel's current player there, once asked for (pyspiel asks it several
        times a step; ``_known``)."""
        self.prefix = ""
        """For an engine state, once ``player`` is known: ``"<seat>:"`` at a simultaneous choice (the prefix
        of that seat's actions in the game's notation), else empty."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Frozen:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled (OpenSpiel's serialization) as what rebuilds it: a state as its match record,
        replayed; a game's own spec as its game's id (a spec extended for other options, whole)."""
        if isinstance(self.value, State):
            return _frozen_replay, (self.value.record(),)
        if isinstance(self.value, GameSpec):
            if self.value is spec_for(self.value.game):
                return _frozen_spec, (self.value.game,)
            return _SharedSpec, (self.value,)
        return _Frozen, (self.value,)


def _frozen_replay(record: dict[str, JSON]) -> _Frozen:
    return _Frozen(replay(record))


def _frozen_spec(game_id: str) -> _Frozen:
    return _SharedSpec(spec_for(game_id))


class _SharedSpec(_Frozen):
    """A game's spec as its states share it, with what they read every step: the spec's ``Numbering``,
    the game's observer and its number of players (both taken from the game on first use: a state unpickled
    by OpenSpiel gets a new one, filled again)."""

    __slots__ = ("numbering", "observer", "players")

    def __init__(self, value: GameSpec) -> None:
        super().__init__(value)
        self.numbering = Numbering(value)
        self.observer: SlipstreamObserver | None = None
        self.players = 0


def _parameters(game_id: str) -> dict[str, JSON]:
    cls = game_class(game_id)
    params: dict[str, JSON] = {"players": cls.default_players, "reward": WIN,
                               "observation": default_observation(cls)}
    for option in cls.option_specs:
        if isinstance(option.default, (bool, int, float, str)):
            params[option.name] = option.default
    return params


def _utility(game_id: str, reward: str) -> pyspiel.GameType.Utility:
    """IDENTICAL for a cooperative game (the team wins or loses together), ZERO_SUM for rewards by place,
    GENERAL_SUM for +1/-1 by winning (with more than two seats the losers' -1s outweigh the winner's +1)."""
    if game_class(game_id).cooperative:
        return pyspiel.GameType.Utility.IDENTICAL
    return pyspiel.GameType.Utility.ZERO_SUM if reward == PLACE else pyspiel.GameType.Utility.GENERAL_SUM


def _game_type(game_id: str, reward: str = WIN) -> pyspiel.GameType:
    cls = game_class(game_id)
    return pyspiel.GameType(
        short_name=library_name(game_id),
        long_name=f"Slipstream {cls.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=_utility(game_id, reward),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game_id),
    )


class SlipstreamGame(pyspiel.Game):  # type: ignore[misc]
    """One configuration of a Slipstream game, as an OpenSpiel game (``register`` makes a subclass per
    game, naming its ``game_id``)."""

    game_id: str

    def __init__(self, params: dict[str, JSON] | None = None) -> None:
        game_id = self.game_id
        chosen = {**_parameters(game_id), **(params or {})}
        players = int(chosen.pop("players"))
        reward = str(chosen.pop("reward"))
        observation = str(chosen.pop("observation"))
        self.engine_game = load(game_id, players=players, **chosen)
        self.start = self.engine_game.start(seed=0)
        """The initial engine state (immutable, so every initial OpenSpiel state shares it)."""
        self.reward = check_reward(self.engine_game, reward)
        self.observation = check_observation(self.engine_game, observation)
        spec = spec_for_game(self.engine_game)
        self._spec = _SharedSpec(spec)
        game_type = _game_type(game_id, reward)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(spec.actions),
            max_chance_outcomes=len(spec.chance),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if game_type.utility == pyspiel.GameType.Utility.ZERO_SUM else None,
            max_game_length=GAME_LENGTH_MARGIN * spec.max_plies,
        )
        super().__init__(game_type, info, {**chosen, "players": players, "reward": reward, "observation": observation})

    @property
    def spec(self) -> GameSpec:
        spec: GameSpec = self._spec.value
        return spec

    def encoder(self) -> Encoder:
        """The observation encoder of the ``observation`` parameter: declared, full (a fresh one) or compact."""
        return make_encoder(self.engine_game, self.spec, self.observation)

    @cached_property
    def observation_names(self) -> tuple[str, ...]:
        """A name for every slot of ``observation_tensor`` (``/cars/1/tyre=soft``; ``ViewEncoder.names``)."""
        return self.encoder().names

    def new_initial_state(self, seed: int = 0) -> SlipstreamState:
        """The start; ``seed`` only matters for what the game sets up without a chance node."""
        return SlipstreamState(self, self.start if seed == 0 else self.engine_game.start(seed=seed))

    @cached_property
    def information_state_names(self) -> tuple[str, ...]:
        """A name for every slot of ``information_state_tensor`` (``InformationEncoder.names``)."""
        return InformationEncoder(self.spec, self.encoder()).names

    @cached_property
    def default_observer(self) -> SlipstreamObserver:
        """The observer that ``SlipstreamState.observation_tensor`` fills (one per game, made on first use)."""
        return SlipstreamObserver(self.encoder(), self.start)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Any = None
    ) -> SlipstreamObserver | SlipstreamInformationObserver:
        """The observation (``view(seat)``) or, for ``perfect_recall``, the information state
        (``slipstream.interop.recall``)."""
        if params:
            raise ValueError(f"Slipstream observers take no parameters, not {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return SlipstreamInformationObserver(InformationEncoder(self.spec, self.encoder()))
        return SlipstreamObserver(self.encoder(), self.start)


class SlipstreamState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around an (immutable) engine state."""

    def __init__(self, game: SlipstreamGame, state: State) -> None:
        super().__init__(game)
        self._spec = game._spec
        self._reward = game.reward
        self._engine = _Frozen(state)

    def recall(self) -> Recall:
        """Every seat's information state (``slipstream.interop.recall``): rebuilt from the record the first
        time it is asked for at a position (its clones share it), then extended by every action applied."""
        engine = self._engine
        if engine.recall is None:
            engine.recall = recall_of(engine.value)
        return engine.recall

    @property
    def engine_state(self) -> State:
        """The engine state (``slipstream.State``) this position is."""
        state: State = self._engine.value
        return state

    def current_player(self) -> int:
        engine = self._engine
        player = engine.player
        if player is None:
            player = _known(engine)
        return player

    def legal_actions(self, player: int | None = None) -> list[int]:
        """pyspiel's ``legal_actions`` (of ``player``, by default the one to act), the same list answered in
        Python: pyspiel's own calls back into this state five times through C++ (the current player thrice,
        ``is_terminal``, ``_legal_actions``). OpenSpiel's C++ algorithms still take pyspiel's way."""
        engine = self._engine
        current = engine.player
        if current is None:
            current = _known(engine)
        if current >= 0 and (player is None or player == current):  # the seat to act (the usual question)
            state: State = engine.value
            prefix = engine.prefix
            if prefix:
                numbers = self._spec.numbering.legal(state.legal_actions(current), len(prefix))
            else:
                numbers = self._spec.numbering.legal(state.legal_actions(), 0)
            return list(numbers[1])
        if player is None:
            player = current
        if current == _TERMINAL:
            return []
        if current == _CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes()]
        if player == current:
            return self._legal_actions(player)
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def is_chance_node(self) -> bool:
        """pyspiel's ``is_chance_node``, answered in Python (the same answer, without a call through C++)."""
        engine = self._engine
        player = engine.player
        if player is None:
            player = _known(engine)
        return player == _CHANCE

    def _legal_actions(self, player: int) -> list[int]:
        state: State = self._engine.value
        actor = state.actor
        if isinstance(actor, frozenset):
            if player != min(actor):
                return []
            numbers = self._spec.numbering.legal(state.legal_actions(player), len(str(player)) + 1)
        elif player == actor and isinstance(actor, int):
            numbers = self._spec.numbering.legal(state.legal_actions(), 0)
        else:
            return []
        return list(numbers[1])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._spec.numbering.chance_outcomes(self._engine.value.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        before = self._engine
        state: State = before.value
        numbering: Numbering = self._spec.numbering
        player = before.player  # pyspiel has just asked for it
        if player is None:
            player = _known(before)
        if player == _CHANCE:
            move = numbering.chance[action]
        elif player >= 0:
            move = before.prefix + numbering.actions[action]
        else:
            raise ValueError(f"no seat acts in {state!r}")
        engine = _Frozen(state.apply(move))
        recall = before.recall
        if recall is not None:
            engine.recall = remember(recall, state, move, engine.value)
        self._engine = engine

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """pyspiel's ``observation_tensor`` (of ``player``, by default the one to act), the same list made in
        Python by the game's observer (``SlipstreamObserver.list_of``). pyspiel's own, called from Python,
        first asks the game for the tensor's shape by observing a new initial state, then copies the tensor
        through C++; this costs about half as much. OpenSpiel's C++ algorithms still take pyspiel's way, to
        the same values."""
        seat = self.current_player() if player is None else int(player)
        shared: _SharedSpec = self._spec
        observer = shared.observer
        if observer is None:
            observer = shared.observer = self.get_game().default_observer
            shared.players = self.num_players()
        if not 0 <= seat < shared.players:
            raise pyspiel.SpielError(
                f"observation_tensor: player {seat} is not a seat from 0 to {shared.players - 1}")
        engine = self._engine.value
        write = observer.write_list  # ``list_of``'s usual way, written out here (a call less a step)
        if write is not None and engine is not observer.start:
            out = observer.zeros.copy()
            write(engine, seat, out)
            return out
        return observer.list_of(engine, seat)

    def _action_to_string(self, player: int, action: int) -> str:
        spec: GameSpec = self._spec.value
        if player == pyspiel.PlayerId.CHANCE:
            return spec.chance[action]
        return spec.actions[action]

    def is_terminal(self) -> bool:
        over: bool = self._engine.value.is_over
        return over

    def returns(self) -> list[float]:
        state = self.engine_state
        return [seat_reward(state, seat, self._reward) for seat in range(state.game.players)]

    def __str__(self) -> str:
        return json.dumps(self.engine_state.view(None), sort_keys=True)


def _known(engine: _Frozen) -> int:
    """OpenSpiel's current player at ``engine``'s state: a seat, or the terminal, chance or invalid id; kept on
    it (``player``) with the prefix of that seat's actions (``prefix``: ``"<seat>:"`` at a simultaneous
    choice)."""
    actor = engine.value.actor
    if isinstance(actor, int):
        player = actor
    elif actor is None:
        player = _TERMINAL
    elif actor == CHANCE:
        player = _CHANCE
    elif isinstance(actor, frozenset):
        player = min(actor)  # the lowest seat of a simultaneous choice acts first (``acting_seat``)
        engine.prefix = f"{player}:"
    else:
        player = _INVALID
    engine.player = player
    return player


class SlipstreamObserver:
    """OpenSpiel's observer interface: ``tensor`` is the seat's observation (declared, full or compact).

    ``state.observation_tensor(player)`` in pyspiel asks a Python game for its tensor's shape on every
    call, by making a new initial state and observing it for player 0: the observations of the shared
    initial state (``start``) are kept, so that costs a copy rather than an encoding."""

    def __init__(self, encoder: Encoder, start: State | None = None) -> None:
        self.encoder = encoder
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {"observation": self.tensor}
        self.start = start
        self._at_start: dict[int, np.ndarray] = {}
        self._write = encoder.declaration.write if isinstance(encoder, DeclaredEncoder) else None
        """The declared observation is written into ``tensor`` in place, through one ``memoryview`` of it
        kept here; the others encode a view, then copy."""
        self.write_list = self._write if isinstance(encoder, DeclaredEncoder) and encoder.writes_float32 else None
        """A declaration whose every value is a float32 also writes ``list_of``'s list itself, into a copy of
        ``zeros``."""
        self._buffer = cast(Buffer, self.tensor.data)
        self.zeros = [0.0] * encoder.size
        self._sparse = encoder.size >= SPARSE_FROM

    def set_from(self, state: SlipstreamState, player: int) -> None:
        self._set(state.engine_state, player)

    def list_of(self, engine: State, player: int) -> list[float]:
        """``player``'s observation of ``engine`` as a new list, what ``set_from`` then ``as_list`` give
        (``tensor`` is left as it was when the game writes the list itself): a declaration whose every value is
        a float32 (Rev it Up's, Rush 'n' Crush's, Scrap Racer's) fills a copy of a list of zeros, with no array in
        between."""
        write = self.write_list
        if write is not None and engine is not self.start:
            out = self.zeros.copy()
            write(engine, player, out)
            return out
        self._set(engine, player)
        return self.as_list()

    def _set(self, engine: State, player: int) -> None:
        if engine is self.start:
            kept = self._at_start.get(player)
            if kept is None:
                kept = self._at_start[player] = self.encoder.observe(engine, player)
            self.tensor[:] = kept
        elif self._write is not None:
            self.tensor.fill(0.0)
            self._write(engine, player, self._buffer)
        else:
            self.tensor[:] = self.encoder.observe(engine, player)

    def as_list(self) -> list[float]:
        """``tensor`` as a new list (``tensor.tolist()``, the same values). A long tensor is mostly zeros:
        its list is a copy of a list of zeros with the other slots set, which costs less."""
        tensor = self.tensor
        if not self._sparse:
            whole: list[float] = tensor.tolist()
            return whole
        out = self.zeros.copy()
        slots = tensor.nonzero()[0]
        for slot, value in zip(slots.tolist(), tensor[slots].tolist(), strict=True):
            out[slot] = value
        return out

    def string_from(self, state: SlipstreamState, player: int) -> str:
        return json.dumps(state.engine_state.view(player), sort_keys=True)


class SlipstreamInformationObserver:
    """OpenSpiel's observer interface for the perfect-recall information state: what the seat saw happen
    (``slipstream.interop.recall``)."""

    def __init__(self, encoder: InformationEncoder) -> None:
        self.encoder = encoder
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {"information_state": self.tensor}

    def set_from(self, state: SlipstreamState, player: int) -> None:
        self.encoder.fill(self.tensor, player, state.recall()[player], state.engine_state)

    def string_from(self, state: SlipstreamState, player: int) -> str:
        return information_string(player, state.recall()[player])


def register() -> list[str]:
    """Register every Slipstream game with ``pyspiel`` (idempotent); return their OpenSpiel names."""
    names = []
    known = set(pyspiel.registered_names())
    for game_id in available_games():
        name = library_name(game_id)
        if name not in known:
            game_class_ = type(f"Slipstream_{name}", (SlipstreamGame,), {"game_id": game_id})
            pyspiel.register_game(_game_type(game_id), game_class_)
        names.append(name)
    return names
