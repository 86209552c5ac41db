"""Seats in words and the tokens that hold them: the names a seat, a bot and a player go by, the bots
the lobby offers, and how a seat's (or the host's) token is kept and checked (only its SHA-256 is stored)."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

from slipstream.bots.registry import bot_names

from .errors import ApiError
from .storage import SeatData

MAX_NAME = 40
BOT_KINDS = ("bot", "resigned")
"""Seat kinds a bot plays: a bot's seat, and a player's who resigned (ranked last on the page)."""

STRENGTHS = {"mcts": ("mcts:0.25s", "mcts", "mcts:3s")}
"""Bots whose strength is part of the name: the levels the lobby offers (fast and weaker to slow and strong)."""


BOT_WORDS = {
    "random": "Random",
    "heuristic": "Heuristic",
    "greedy": "Greedy",
    "mcts:0.25s": "Quick search",
    "mcts": "Search",
    "mcts:3s": "Deep search",
}
"""How the page names the lobby's bots (any other valid bot name is shown as it is)."""


def bot_seat_name(bot: str, seat: int, player: str = "") -> str:
    """A bot seat's name, unique in its match: the bot and the seat's number as the page shows it
    (``Heuristic bot 2``); a player's seat handed to a bot keeps the player's name (``Bob (Random bot)``)."""
    word = BOT_WORDS.get(bot, bot)
    if player:
        return f"{player} ({word} bot)"[:60]
    return f"{word} bot {seat + 1}"


def unique_name(wanted: str, seat: int, seats: Sequence[SeatData]) -> str:
    """A joining player's name, made unique in the match (a second "Bob" in seat 3 is "Bob (3)"), so
    every seat has one name the log, the tables and the result can show."""
    name = wanted.strip()[:MAX_NAME] or f"P{seat + 1}"
    taken = {s.name.casefold() for s in seats if s.seat != seat and s.kind != "open"}
    if name.casefold() in taken:
        name = f"{name[: MAX_NAME - 5]} ({seat + 1})"
    return name


def seat_numbers(seats: Sequence[int]) -> str:
    """Seats as the page numbers them (from 1), for messages a person reads: "seats 2 and 3"."""
    shown = [str(s + 1) for s in seats]
    if len(shown) == 1:
        return f"seat {shown[0]}"
    return f"seats {', '.join(shown[:-1])} and {shown[-1]}"


def seat_label(seat: int, seats: Sequence[SeatData] = ()) -> str:
    """One seat as the page names it, for a message a player reads: "Seat 1 (Ann)" (numbered from 1,
    with the seat's name when it has one); the API's own numbers count from 0."""
    name = seats[seat].name if 0 <= seat < len(seats) else ""
    return f"Seat {seat + 1} ({name})" if name else f"Seat {seat + 1}"


def no_such_seat(seat: int, players: int) -> ApiError:
    """A seat number (0-based, as the API counts) the match does not have."""
    return ApiError(
        404,
        "not_found",
        f"no seat {seat}: the API counts seats from 0 (0 to {players - 1}), the page from 1 "
        f"(Seat 1 to Seat {players})",
    )


def bot_menu(game_id: str) -> list[str]:
    """The bots the lobby offers for a game, strengths spelled out (any valid bot name is accepted)."""
    out: list[str] = []
    for name in bot_names(game_id):
        out.extend(STRENGTHS.get(name, (name,)))
    return out


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str | None, digest: str | None) -> bool:
    if not token or not digest:
        return False
    return hmac.compare_digest(hash_token(token), digest)
