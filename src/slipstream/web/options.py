"""A client's game and its options: checked by the game, none naming a file on the server, and every
refusal in words that do not repeat what the client sent; and a stored match's game, loaded as it was made."""

from __future__ import annotations

from typing import Any

from slipstream.engine.errors import SlipstreamError
from slipstream.engine.game import Game, OptionSpec
from slipstream.engine.registry import game_class, games, load

from .errors import ApiError
from .storage import MatchData

FORBIDDEN_OPTIONS = ("content",)


def names_a_file(value: Any) -> bool:
    """Whether an option value could be read as a path on the server (a separator, a dot, a ``~``)."""
    return isinstance(value, str) and (any(c in value for c in "/\\.\0") or value.startswith("~"))


def load_game(game_id: str, options: dict[str, Any]) -> Game:
    """A client's game: options checked by the game, and none of them naming a file on the server.

    The options are refused before the game sees them, so the answer never depends on which files
    exist (and no FIFO or device is ever opened). It may read the game's shipped content, so the
    server calls it in a thread, never on the event loop. No error repeats what the client sent: an
    option is named only when the game has it.
    """
    try:
        cls = game_class(game_id)
    except SlipstreamError:
        raise ApiError(400, "unknown_game", f"no game has this id; the games are: {', '.join(games())}") from None
    opts = dict(options)
    players = opts.pop("players", None)
    specs = {spec.name for spec in cls.option_specs}
    for name in FORBIDDEN_OPTIONS:
        if name in opts:
            raise ApiError(
                400, "bad_option", f"option {name!r} (a server file path) is not accepted over the web"
            )
    for name, value in opts.items():
        if name not in specs:
            raise ApiError(400, "bad_option", f"{cls.name} has no option by that name. Valid: {valid_options(cls.id)}")
        if names_a_file(value):
            raise ApiError(
                400,
                "bad_option",
                f"option {name!r}: over the web only the game's own values are accepted, not a file "
                "(a value has no '/', '\\', '.' or leading '~')",
            )
    try:
        return load(cls.id, players=players, **opts)
    except (SlipstreamError, TypeError) as exc:
        if getattr(exc, "code", None) == "bad_content":
            raise ApiError(400, "bad_content", str(exc)) from None
        problem = option_problem(cls.id, players, opts)
        raise ApiError(400, "bad_option", f"{problem}. Valid: {valid_options(cls.id)}") from None


def option_problem(game_id: str, players: Any, options: dict[str, Any]) -> str:
    """Which of a client's options a game refused, in words that do not repeat the value: the player
    count, else the first option the game refuses on its own, else the mix."""
    try:
        load(game_id, players=players)
    except (SlipstreamError, TypeError):
        cls = game_class(game_id)
        return f"this game is for {cls.min_players} to {cls.max_players} players"
    specs = {spec.name: spec for spec in game_class(game_id).option_specs}
    for name, value in options.items():
        try:
            load(game_id, players=players, **{name: value})
        except (SlipstreamError, TypeError):
            spec = specs[name]
            takes = spec.help if spec.kind is str and spec.choices is None and spec.help else option_values(spec)
            return f"option {name!r} does not take that value: it takes {takes}"
    return "these options do not go together"


def valid_options(game_id: str) -> str:
    """Every option a client may send for a game, with its valid values, in words:
    "laps: a whole number from 1 to 50; grid: roll-off or qualifying; sprint: true or false"."""
    cls = game_class(game_id)
    parts = [f"{spec.name}: {option_values(spec)}" for spec in cls.option_specs if spec.name not in FORBIDDEN_OPTIONS]
    players = f"players: {cls.min_players} to {cls.max_players}"
    return "; ".join([players, *parts])


def option_values(spec: OptionSpec) -> str:
    """The values an option takes, in words: "roll-off or qualifying", "a whole number from 1 to 50"."""
    if spec.choices is not None:
        values = [str(c) for c in spec.choices]
        return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} or {values[-1]}"
    if spec.kind is bool:
        return "true or false"
    if spec.kind is int:
        low = "" if spec.minimum is None else f" from {spec.minimum}"
        high = "" if spec.maximum is None else f" to {spec.maximum}"
        return f"a whole number{low}{high}"
    return "text"


def stored_game(data: MatchData) -> Game:
    """A stored match's game, from the options it was created with: ``load_game`` checked them then,
    and ``record_options`` wrote every option, defaults included (``content`` is the shipped one), so
    they are loaded as they are, not checked again as a client's request."""
    options = dict(data.options)
    players = options.pop("players", None)
    return load(data.game_id, players=players, **options)

