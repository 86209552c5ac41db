"""``python -m tests.web.clockserve serve ...``: the server (``python -m slipstream.web``) with its clock
``SLIPSTREAM_TEST_CLOCK_OFFSET`` seconds ahead (``web/clock.py``): a turn-based race "the next day"."""

from __future__ import annotations

import os
import runpy

from slipstream.web import clock

if __name__ == "__main__":  # not in a bot worker (spawned: it imports this as ``__mp_main__``)
    clock.advance(float(os.environ.get("SLIPSTREAM_TEST_CLOCK_OFFSET", "0")))
    runpy.run_module("slipstream.web", run_name="__main__", alter_sys=True)
