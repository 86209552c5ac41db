"""Highway Heist: complete random matches per second on one core (see benchmarks/races.py).

    python -m benchmarks.bench_highway_heist [--races N] [--players P] [--repeat K] [--option name=value ...]

``--option scenario=semi-heist`` (or ``chopper-takedown``) measures another scenario; the default is the
first game's, Tank Assault.
"""

from benchmarks.races import main

if __name__ == "__main__":
    main(default_game="highway-heist")
