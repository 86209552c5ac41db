"""Typed errors. Every error a caller can cause is a ``ValueError`` subclass with a clear message."""

from __future__ import annotations

from collections.abc import Sequence


class SlipstreamError(ValueError):
    """Base class of every error the library raises on bad input."""

    code = "error"


class UnknownGameError(SlipstreamError):
    """A game id that is not registered."""

    code = "unknown_game"

    def __init__(self, game_id: str, known: Sequence[str]) -> None:
        self.game_id = game_id
        self.known = tuple(known)
        super().__init__(f"unknown game {game_id!r}; the games are: {', '.join(self.known)}")


class OptionError(SlipstreamError):
    """An unknown option, or a value an option does not accept."""

    code = "bad_option"


class IllegalActionError(SlipstreamError):
    """An action that is not legal in the current state. The state is unchanged."""

    code = "illegal_action"

    def __init__(self, action: object, legal: Sequence[str], reason: str = "") -> None:
        self.action = action
        self.legal = tuple(legal)
        shown = ", ".join(self.legal[:40]) + (" ..." if len(self.legal) > 40 else "")
        why = f" ({reason})" if reason else ""
        super().__init__(f"illegal action {action!r}{why}; legal actions: {shown or 'none'}")


class SeatError(SlipstreamError):
    """A seat number the game does not have (seats are numbered from 0)."""

    code = "bad_seat"

    def __init__(self, seat: object, players: int) -> None:
        self.seat = seat
        super().__init__(f"no seat {seat!r}: the seats are 0 to {players - 1} (None: a spectator)")


class RecordError(SlipstreamError):
    """A malformed match record, or one that does not replay."""

    code = "bad_record"


class ContentError(SlipstreamError):
    """A malformed content file (track, deck, dice, characters)."""

    code = "bad_content"

    def __init__(self, source: str, record: str, field: str, problem: str) -> None:
        self.source = source
        self.record = record
        self.field = field
        super().__init__(f"{source}: {record}: field {field!r}: {problem}")
