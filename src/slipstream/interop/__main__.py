"""``python -m slipstream.interop [GAME ...]``: rebuild the shipped specs (every game by default)."""

from __future__ import annotations

import sys

from .spec import write_shipped

write_shipped(sys.argv[1:] or None)
