"""The server's garbage-collector policy (``serve.GarbagePolicy``, issue 14, Load): what survives a full
pass is left out of the next ones, and a reference cycle that became garbage after it was frozen is
still reclaimed once the reset interval has passed."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from slipstream.web.serve import GarbagePolicy


class Node:
    def __init__(self) -> None:
        self.me: Node | None = self  # a reference cycle: only the collector can free it


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def policy() -> Iterator[tuple[GarbagePolicy, Clock]]:
    clock = Clock()
    policy = GarbagePolicy(reset_seconds=600.0, clock=clock)
    policy.install()
    try:
        yield policy, clock
    finally:
        policy.uninstall()


def test_survivors_are_frozen_and_late_cycles_are_reclaimed_at_the_reset(
    policy: tuple[GarbagePolicy, Clock],
) -> None:
    _policy, clock = policy
    node = Node()
    alive = weakref.ref(node)
    frozen_before = gc.get_freeze_count()
    gc.collect()
    assert gc.get_freeze_count() > frozen_before, "what survived the full pass is frozen"
    del node
    gc.collect()
    assert alive() is not None, "a frozen cycle waits for the reset (the price of short passes)"
    clock.now = 600.0
    gc.collect()  # the pass at the reset time unfreezes: the next one walks everything
    gc.collect()
    assert alive() is None, "after the reset the cycle is reclaimed"


def test_garbage_that_is_not_a_cycle_is_freed_at_once(policy: tuple[GarbagePolicy, Clock]) -> None:
    class Leaf:
        pass

    leaf = Leaf()
    alive = weakref.ref(leaf)
    gc.collect()
    del leaf
    assert alive() is None, "reference counting frees a frozen object nothing refers to"


def test_uninstall_gives_everything_back_to_the_collector() -> None:
    policy = GarbagePolicy(reset_seconds=600.0)
    policy.install()
    node = Node()
    alive = weakref.ref(node)
    gc.collect()
    del node
    policy.uninstall()
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert alive() is None


def test_middle_passes_come_often_full_ones_rarely_and_uninstall_restores_the_default() -> None:
    before = gc.get_threshold()
    policy = GarbagePolicy(reset_seconds=600.0, full_every=500)
    policy.install()
    try:
        assert gc.get_threshold() == (before[0], GarbagePolicy.MIDDLE_EVERY, 500)
        assert before[1] > GarbagePolicy.MIDDLE_EVERY, "each middle pass walks less than by default"
    finally:
        policy.uninstall()
    assert gc.get_threshold() == before
