"""Rev it Up: complete random races per second on one core (see benchmarks/races.py).

    python -m benchmarks.bench_rev_it_up [--races N] [--players P] [--repeat K] [--option name=value ...]
"""

from benchmarks.races import main

if __name__ == "__main__":
    main(default_game="rev-it-up")
