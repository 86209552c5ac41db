"""AI environments for every registered game, through the public engine contract only.

- ``slipstream.interop.pettingzoo``: ``env(game_id, ...)`` (AEC) and ``parallel_env(game_id, ...)``;
- ``slipstream.interop.gymnasium``: importing it registers ``slipstream/<game id>-v0`` (one seat
  against bots);
- ``slipstream.interop.openspiel``: ``register()`` makes ``slipstream_<game_id>`` loadable by ``pyspiel``.

All three share a game's spec (``slipstream.interop.spec``: the numbered action space, chance outcomes and
observation schema), its observation (the game's declared one, ``slipstream.interop.declared``, where it
declares one; else the encoding of ``view(seat)``, ``slipstream.interop.encoding``; or
``slipstream.interop.compact`` with ``observation="compact"``) and the ``reward`` option (by winning or by
place). OpenSpiel's information states are in ``slipstream.interop.recall``.
The libraries are imported only by the module that bridges to them (the ``interop`` extra installs
them). See ``docs/interop.md``.
"""

from .spec import GameSpec, UnseenActionError, build_spec, spec_for

__all__ = ["GameSpec", "UnseenActionError", "build_spec", "spec_for"]
