"""Throughput and latency measurements. Run a file with ``python -m benchmarks.<name>``."""
