"""Rush 'n' Crush: complete random races per second on one core (see benchmarks/races.py).

    python -m benchmarks.bench_rush_n_crush [--races N] [--players P] [--repeat K] [--option name=value ...]
"""

from benchmarks.races import main

if __name__ == "__main__":
    main(default_game="rush-n-crush")
