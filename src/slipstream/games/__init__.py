"""One package per game; each defines ``GAME``, its ``Game`` subclass, and is found by the registry."""
