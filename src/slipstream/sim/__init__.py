"""The race simulator: batch runs of bots through the engine contract, statistics, plots and reports.

Generic over every registered game; a game adds its own numbers through ``slipstream.games.<pkg>.metrics``
(``race_metrics``, ``seat_labels``, ``standings``), each optional.
"""

from .runner import BACKENDS, RunOutcome, SimConfig, SimError, run

__all__ = ["BACKENDS", "RunOutcome", "SimConfig", "SimError", "run"]
