"""Rev it Up: simultaneous bag-building racing (rules/rev-it-up.txt, gaps RIU-* decided in
docs/rules/rev-it-up.md)."""

from .game import RevItUp

GAME = RevItUp

__all__ = ["GAME", "RevItUp"]
