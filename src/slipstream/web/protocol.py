"""What the server tells a seat: built only from the engine contract, never from raw actions.

``seat_payload`` is everything a seat (or a spectator, ``seat=None``) receives about a position. It
uses ``state.view(seat)``, the actor, the seat's own legal actions and the game's ``render`` module
on that view, so a seat learns nothing the engine does not show it. Other seats' actions are never
sent: a chance outcome or a simultaneous choice may be secret, so the log is made of the events the
engine marks visible to the seat.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Mapping
from typing import Any

from slipstream.engine.game import CHANCE, JSON, Game, Result, State
from slipstream.engine.hooks import hooks_of
from slipstream.engine.play import pending_seats
from slipstream.engine.registry import game_class

log = logging.getLogger("slipstream.web")


ERROR_CODES: dict[str, str] = {
    "bad_request": "the request is malformed (missing or wrong field, bad JSON)",
    "bad_token": "the token does not belong to this match or seat",
    "not_host": "only the match's creator may do this",
    "not_found": "no such match, seat or ply",
    "unknown_game": "no registered game has this id",
    "bad_option": "an option or the number of players is not accepted by the game",
    "unknown_bot": "no such bot for this game",
    "seat_taken": "the seat is already filled",
    "seats_open": "the match cannot start while a seat is empty",
    "not_open": "the match has already started",
    "not_running": "the match is not running (not started yet, or finished)",
    "not_finished": "records and replays are available once the match is over",
    "not_your_turn": "the seat is not asked to act now",
    "stale": "the position the action was chosen in has changed (its ply is not the current one)",
    "duplicate": "an action with this id was already accepted for this seat",
    "illegal_action": "the action is not legal now; the message lists the legal actions",
    "unavailable": "the action could not be saved; nothing changed, try again",
    "too_large": "the request body, or its line and headers, is larger than the server accepts",
    "timeout": "the request body was not sent in time",
    "too_many": "more than one address may have: matches created, open or running, or sockets and spectators",
    "busy": "the server holds as many matches waiting for players, or running, as it accepts; try again later",
    "cannot_undo": "nothing to take back: only a seat's own last step that revealed nothing",
    "cannot_claim": "the win cannot be claimed: another player is still there, or has not been away long enough",
    "seat_held": "a rematch holds this seat for its player for a while; then it is open",
    "muted": "the host muted this spectator in the table chat",
    "too_many_searches": "as many deep-search bots run as the server takes from one address, or in all; choose a "
    "quicker bot or wait",
    "bad_login": "wrong name or password (the same answer for both)",
    "bad_name": "an account name is 3 to 24 letters, digits, '_' or '-'",
    "bad_password": "a password is 8 to 200 characters",
    "name_taken": "this name has an account already",
    "one_seat": "an account holds one seat of a match",
    "account_needed": "a rated race takes players with accounts only",
}



def board_module(game_id: str) -> str | None:
    """The URL of a game's own board drawing (its ``web_board`` hook), if it has one."""
    return f"/boards/{game_id}.js" if hooks_of(game_class(game_id)).web_board is not None else None


def actor_info(state: State) -> dict[str, Any]:
    """Who acts now, in a form a client can show: a seat, several seats at once, chance, or nobody."""
    actor = state.actor
    if actor is None:
        return {"kind": "none", "seats": []}
    if actor == CHANCE:
        return {"kind": "chance", "seats": []}
    if isinstance(actor, frozenset):
        return {"kind": "simultaneous", "seats": sorted(actor)}
    return {"kind": "seat", "seats": pending_seats(state)}


EMOJI_CODE = re.compile(r"(:(\S*?)(?:(?:\-)(emoji|text))?:)")
"""What Rich replaces as an emoji code (``rich._emoji_replace``): markup without one keeps its colons."""


def plain(markup: str) -> str:
    """Rich markup as plain text: ``rich.text.Text.from_markup(markup).plain``, without building the
    styled text (that cost about 1 ms per board, most of a state message): tags dropped, ``\\[``
    escapes kept as ``[``, emoji codes replaced and control codes stripped piece by piece as Rich does."""
    from rich._emoji_replace import _emoji_replace
    from rich.control import strip_control_codes
    from rich.markup import RE_TAGS

    out: list[str] = []

    def text(piece: str) -> None:
        piece = piece.replace("\\[", "[")
        if ":" in piece:
            piece = _emoji_replace(piece)
        out.append(strip_control_codes(piece))

    if "[" not in markup:
        text(markup)
        return "".join(out)
    if "\\" not in markup and EMOJI_CODE.search(markup) is None:  # no escapes or emoji: tags simply go
        return strip_control_codes(RE_TAGS.sub("", markup))
    position = 0
    for match in RE_TAGS.finditer(markup):
        full, escapes, _tag = match.groups()
        start, end = match.span()
        if start > position:
            text(markup[position:start])
        position = end
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            if backslashes:
                text("\\" * backslashes)
            if escaped:
                text(full[len(escapes) :])
    if position < len(markup):
        text(markup[position:])
    return "".join(out)


@functools.lru_cache(maxsize=1 << 16)
def describe(game: Game, action: str) -> str:
    """An action's words, from its game's ``describe_action`` hook (the action itself without one),
    remembered: an action's words depend on the loaded game (its content) and the action alone, and a
    state message labels every legal action (Highway Heist offers dozens a step)."""
    fn = hooks_of(game).describe_action
    if fn is None:
        return action
    try:
        return str(fn(game, action))
    except Exception:
        log.exception("%s: describe_action(%r) failed", game.id, action)
        return action


def glossary(game: Game) -> dict[str, dict[str, str]]:
    """The loaded game's glossary hook as JSON (empty without one): ``{id: {name, text, kind}}``."""
    fn = hooks_of(game).glossary
    return {} if fn is None else {key: term.to_json() for key, term in fn(game).items()}


VIEWER_KEYS = frozenset({"seat", "legal_actions"})
"""Keys a view may carry about who is looking (its seat, its own legal actions): not a secret by itself."""


def empty(value: object) -> bool:
    return value is None or value is False or (isinstance(value, (str, list, tuple, dict)) and not value)


def holds_private(view: Mapping[str, Any], public: Mapping[str, Any]) -> bool:
    """Whether a seat's view shows something the spectators' does not (a hand, a secret choice, a cart):
    a field that differs from theirs and is not empty for the seat, beside the ``VIEWER_KEYS``. The
    hot-seat page hides such a view until its player holds the device."""
    for key in view.keys() | public.keys():
        if key in VIEWER_KEYS:
            continue
        mine = view.get(key)
        if mine != public.get(key) and not empty(mine):
            return True
    return False


_PUBLIC: list[tuple[State, Mapping[str, Any]]] = []
"""The spectators' view of the last state asked (every seat's message of one step shares it)."""


def public_view(state: State) -> Mapping[str, Any]:
    kept = _PUBLIC[0] if _PUBLIC else None
    if kept is not None and kept[0] is state:
        return kept[1]
    view = sent_view(state.view(None))
    _PUBLIC[:] = [(state, view)]
    return view


def scoreboard(state: State) -> dict[str, Any] | None:
    """The game's key numbers of a finished race (its ``scoreboard`` hook), for the results table:
    ``{"columns": [...], "values": [[...] for each seat in seat order]}``; ``None`` before the end or
    without the hook."""
    fn = hooks_of(state.game).scoreboard
    if fn is None or not state.is_over:
        return None
    try:
        board = fn(state)
    except Exception:
        log.exception("%s: scoreboard failed", state.game.id)
        return None
    columns = list(next(iter(board.values()), {}).keys())
    return {
        "columns": columns,
        "values": [[str(board.get(seat, {}).get(c, "")) for c in columns] for seat in state.game.seats],
    }


def sent_view(view: dict[str, JSON]) -> dict[str, JSON]:
    """A view as the server sends it: without ``terms`` (the game's content in words, the same at every
    position, which a view may carry for the text board): the page fetches it once, as the glossary."""
    if "terms" not in view:
        return view
    return {key: value for key, value in view.items() if key != "terms"}


def seat_payload(state: State, seat: int | None, live: bool = True, text_board: bool = True) -> dict[str, Any]:
    """What ``seat`` may know about ``state``: view, whose turn, its own legal actions, hints and plans
    (the game's ``move_plans`` hook: multi-step moves the board may offer; only to the seat asked to act).

    ``private``: whether the seat's view shows something the spectators' does not (``holds_private``);
    ``scoreboard``: the game's key numbers once the race is over (``scoreboard``).
    With ``live=False`` (a match not started yet, or a replay) no actions or hints are offered. With
    ``text_board=False`` the game's text picture of the board is left out (``""``): it costs most of a
    message to draw, and a live client asks for it only while it shows it.
    """
    game_id = state.game.id
    hooks = hooks_of(state.game)
    board_fn = hooks.board_text
    # a spectator's message shares the view every seat's message of the step compares with (``holds_private``)
    shared = seat is None and not (text_board and board_fn is not None)
    view: dict[str, Any] = dict(public_view(state)) if shared else state.view(seat)
    pending = pending_seats(state)
    legal: list[str] = []
    hints: list[str] = []
    plans: Any = None
    if live and seat is not None and seat in pending:
        legal = state.legal_actions(seat)
        hint_fn = hooks.hints
        if hint_fn is not None:
            try:
                hints = [str(h) for h in hint_fn(state, seat)]
            except Exception:
                log.exception("%s: hints failed", game_id)
        plans_fn = hooks.move_plans
        if plans_fn is not None:
            try:
                plans = plans_fn(state, seat)
            except Exception:
                log.exception("%s: move_plans failed", game_id)
    board_text = ""
    if board_fn is not None and text_board:
        try:
            board_text = plain(str(board_fn(view)))
        except Exception:
            log.exception("%s: board failed", game_id)
    view = sent_view(view)
    result = state.result
    return {
        "ply": state.ply,
        "actor": actor_info(state),
        "legal": legal,
        "labels": {a: describe(state.game, a) for a in legal},
        "hints": hints,
        "plans": plans,
        "view": view,
        "board_text": board_text,
        "result": result.to_json() if result is not None else None,
        "private": seat is not None and holds_private(view, public_view(state)),
        "scoreboard": scoreboard(state) if result is not None else None,
    }


def resigned_result(result: Result, resigned: set[int]) -> dict[str, JSON]:
    """The result as the server reports it (state messages, replays, the record's ``result``): a seat
    whose player resigned is ranked below every seat that did not, and loses; the race's own order
    stays in ``details["race_order"]``, the resigned seats in ``details["resigned"]``. A team result
    (the seats win or lose together) keeps its order and winners, and only names who resigned."""
    out = result.to_json()
    if not resigned & set(result.order):
        return out
    details = dict(result.details)
    details["resigned"] = sorted(resigned & set(result.order))
    if not result.team:
        order = [s for s in result.order if s not in resigned] + [s for s in result.order if s in resigned]
        winners = [s for s in result.winners if s not in resigned]
        if result.winners and not winners and order[0] not in resigned:
            winners = [order[0]]  # the race's winner resigned: the best placed of the others wins
        details["race_order"] = list(result.order)
        out["order"], out["winners"] = list(order), list(winners)
    out["details"] = details
    return out


def replay_log(states: list[State], seat: int | None, last: int = 300) -> list[dict[str, Any]]:
    """The log as ``seat`` saw it up to the last of ``states`` (a finished match's replay): each
    step's visible events, the last ``last`` steps that have any."""
    entries = []
    for state in states:
        events = state.visible_events(seat)
        if events:
            entries.append({"ply": state.ply, "events": events})
    return entries[-last:]


def events_payload(state: State, seat: int | None) -> list[dict[str, Any]]:
    """The last step's events that ``seat`` may see."""
    return state.visible_events(seat)
