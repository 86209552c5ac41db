"""The web load benchmark's comparison mode (``benchmarks/bench_web.py --compare``): its options, the
order of its rows, its verdict, and one tiny real run that measures both rows."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks import bench_web


def test_compare_alternates_plain_and_chat_with_presence() -> None:
    args = bench_web.parse_args(["--compare", "chat", "--repeat", "3"])
    setups = bench_web.compare_setups(args)
    assert [s.label for s in setups] == ["A", "B"] * 3
    plain, loaded = setups[0], setups[1]
    assert (plain.chat_every, plain.presence, plain.spectators) == (0, False, 0)
    assert (loaded.chat_every, loaded.presence, loaded.spectators) == (5, True, 0)
    watched = bench_web.compare_setups(bench_web.parse_args(["--compare", "chat", "--spectators", "1"]))
    assert [s.spectators for s in watched[:2]] == [1, 1]  # the same audience on both sides
    chat_given = bench_web.compare_setups(bench_web.parse_args(["--compare", "chat", "--chat-every", "10"]))
    assert chat_given[1].chat_every == 10
    alone = bench_web.compare_setups(bench_web.parse_args(["--compare", "presence", "--spectators", "2"]))
    assert (alone[1].chat_every, alone[1].presence, alone[1].spectators) == (0, True, 2)
    assert alone[0].spectators == 2


@pytest.mark.parametrize(
    "argv",
    [
        ["--compare", "chat", "--scan", "50,100"],
        ["--compare", "chat", "--port", "8000"],
        ["--compare", "chat", "--repeat", "0"],
        ["--compare", "typing"],
        ["--spectators", "-1"],
    ],
)
def test_bad_combinations_stop_with_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        bench_web.parse_args(argv)
    assert stop.value.code == 2
    assert "error:" in capsys.readouterr().err


def row(label: str, p99: float, cpu: float = 0.5) -> dict[str, Any]:
    return {"row": label, "moves": 100, "p99_ms": p99, "server_cpu_ms_per_move": cpu}


def test_the_verdict_is_the_median_of_each_side_and_each_pair() -> None:
    rows = [row("A", 4.0), row("B", 5.0, 0.6), row("A", 10.0), row("B", 4.0, 0.6), row("A", 5.0), row("B", 6.0, 0.7)]
    verdict = bench_web.summarize(rows)
    assert verdict["p99_a_ms"] == 5.0
    assert verdict["p99_b_ms"] == 5.0
    assert verdict["b_over_a"] == 1.0
    assert verdict["pairs"] == [1.25, 0.4, 1.2]
    assert verdict["pair_ratio_median"] == 1.2
    assert (verdict["cpu_a_ms"], verdict["cpu_b_ms"]) == (0.5, 0.6)
    empty = bench_web.summarize([{"row": "A", "moves": 0}, row("B", 5.0)])
    assert "b_over_a" not in empty


def test_a_tiny_compare_run_measures_both_rows(capsys: pytest.CaptureFixture[str]) -> None:
    """Two Toy Dash matches watched by a spectator each, 2 s measured a row: row A says no chat, row B's
    seats get chat lines; the spectators read the race in both."""
    rows = bench_web.main(
        [
            "--games", "2", "--duration", "2", "--warmup", "0.5", "--think", "0.2", "--clients", "1",
            "--compare", "chat", "--chat-every", "4", "--repeat", "1", "--spectators", "1",
        ]
    )  # fmt: skip
    assert [r["row"] for r in rows] == ["A", "B"]
    plain, loaded = rows
    assert plain["moves"] > 0 and loaded["moves"] > 0
    assert plain["chat_lines_received"] == 0 and loaded["chat_lines_received"] > 0
    assert plain["spectator_messages"] > 0 and loaded["spectator_messages"] > 0
    assert plain["presence"] is False and loaded["presence"] is True
    assert plain["spectators"] == loaded["spectators"] == 1
    assert plain["errors"] == {} and loaded["errors"] == {}
    assert "B/A" in capsys.readouterr().out
