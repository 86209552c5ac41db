"""Bots: agents that choose actions through the engine contract."""
