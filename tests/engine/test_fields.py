"""A state's fields are declared once; the engine derives the copy (engine/fields.py, slipstream._native)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

import slipstream
from slipstream import _native
from slipstream.engine.fields import (
    clone_method_source,
    copy_declared,
    copy_rule_problems,
    declarations_in_source,
    declared_fields,
    replaced,
    slots,
)
from slipstream.engine.game import Actor, Event, EventCache, Game, Result, State

SOURCE = '''
class Counter(State):
    kind: ClassVar[str] = "x"
    positions: list[int]
    names: tuple[str, ...]
    turn: int
'''


class Counter(State):
    """A two-field game state for the tests: one list, one tuple, one int."""

    label: ClassVar[str] = "counter"
    positions: list[int]
    names: tuple[str, ...]
    turn: int
    __slots__ = slots(__annotations__)

    def _actor(self) -> Actor:
        return None if self.turn >= 3 else self.turn % 2

    def _legal(self) -> list[str]:
        return ["step"] if self._actor() is not None else []

    def _do(self, action: str) -> list[Event]:
        self.positions[self.turn % 2] += 1
        self.names = replaced(self.names, self.turn % 2, f"moved-{self.turn}")
        self.turn += 1
        return [Event("step", "a step", "test")]

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"positions": list(self.positions), "names": list(self.names), "turn": self.turn}

    @property
    def result(self) -> Result | None:
        return Result((0, 1), (0,), "done") if self.turn >= 3 else None


class CounterGame(Game):
    id = "counter-test"
    name = "Counter"
    min_players = 2
    max_players = 2
    default_players = 2
    leave_unset: ClassVar[bool] = False

    def _initial_state(self) -> Counter:
        s = Counter()
        s.positions = [0, 0]
        if not self.leave_unset:
            s.names = ("a", "b")
        s.turn = 0
        return s


def test_the_fields_are_read_from_the_annotations_class_variables_and_engine_fields_left_out() -> None:
    assert declared_fields(Counter) == (("positions", True), ("names", False), ("turn", False))
    assert Counter.__slots__ == ("positions", "names", "turn")
    assert not hasattr(CounterGame().start(seed=0), "__dict__")


def test_the_class_gets_its_copy_written_from_its_declarations() -> None:
    """``State.__init_subclass__`` writes ``_clone`` field by field (``clone_method_source``)."""
    assert "_clone" in vars(Counter) and Counter._clone.__qualname__ == "Counter._clone"


def test_apply_copies_lists_and_shares_everything_else() -> None:
    """The copy rule: a list is copied on every apply, any other value is shared and replaced."""
    start = CounterGame().start(seed=1)
    after = start.apply("step")
    assert start.positions == [0, 0] and after.positions == [1, 0]
    assert start.names == ("a", "b") and after.names == ("moved-0", "b")
    assert after.positions is not start.positions
    copy = copy_declared(start)
    assert copy.positions == start.positions and copy.positions is not start.positions
    assert copy.names is start.names


def test_copy_keeps_the_history_and_is_independent() -> None:
    state = CounterGame().start(seed=5).apply("step")
    twin = state.copy()
    assert twin.record() == state.record() and twin.ply == state.ply and twin.events == state.events
    twin.positions[1] = 9
    assert state.positions == [1, 0]


def test_an_initial_state_that_leaves_a_field_unset_is_refused_at_start() -> None:
    class Forgetful(CounterGame):
        leave_unset = True

    with pytest.raises(TypeError, match="leaves names unset"):
        Forgetful().start(seed=0)


def test_the_copy_rule_check_finds_a_shared_mutable_value() -> None:
    state = CounterGame().start(seed=0)
    assert copy_rule_problems(state) == []
    state.names = (["shared"],)  # type: ignore[assignment]
    assert copy_rule_problems(state) == ["names is shared between states but holds something mutable: (['shared'],)"]
    state.names = ("a", "b")
    state.positions = [[1], 0]  # type: ignore[list-item]
    assert copy_rule_problems(state) == ["the list positions holds a mutable item (items are shared between states)"]


def test_the_build_reads_the_same_declarations_from_the_source() -> None:
    assert declarations_in_source(SOURCE) == {"Counter": [("positions", True), ("names", False), ("turn", False)]}


def test_the_generated_copy_method_applies_the_same_rule() -> None:
    """The compiled build's ``_clone``, run here as Python, copies exactly as ``copy_declared`` does."""
    text = clone_method_source("Counter", declarations_in_source(SOURCE)["Counter"], indent="")
    namespace: dict[str, Any] = {"Counter": Counter}
    exec(compile(text, "<generated>", "exec"), namespace)
    state = CounterGame().start(seed=0)
    made = namespace["_clone"](state)
    assert (made.positions, made.names, made.turn) == (state.positions, state.names, state.turn)
    assert made.positions is not state.positions and made.names is state.names


def test_the_build_writes_the_copy_into_each_declared_state_and_leaves_other_classes_alone() -> None:
    source = "from x import State\n\nclass Other:\n    a: int\n" + SOURCE + "\nVALUE = 1\n"
    generated = _native.with_generated_copies(source)
    tree = ast.parse(generated)
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    methods = [item.name for item in classes["Counter"].body if isinstance(item, ast.FunctionDef)]
    assert methods == ["_clone"] and not any(isinstance(i, ast.FunctionDef) for i in classes["Other"].body)
    assert generated.endswith("\nVALUE = 1\n") and _native.GENERATED_MARK in generated


@pytest.mark.parametrize("game_id", sorted(slipstream.available_games()))
def test_no_game_writes_its_copy_by_hand(game_id: str) -> None:
    """One way to declare a state: no game's state class defines ``_clone``, and its ``__slots__`` (if
    any) are derived from its annotations (``slots(__annotations__)``), never listed by hand."""
    state_class = type(slipstream.load(game_id).start(seed=0))
    module_file = Path(str(sys.modules[state_class.__module__].__file__))
    # the .py file, in either build (a compiled module's file is its extension, beside the source)
    source = (module_file if module_file.suffix == ".py" else _native.source_of(state_class.__module__)).read_text()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == state_class.__name__:
            names = {getattr(item, "name", None) for item in node.body}
            listed = [item for item in node.body if isinstance(item, ast.Assign)
                      and any(getattr(t, "id", "") == "__slots__" for t in item.targets)
                      and ast.unparse(item.value) != "slots(__annotations__)"]
            assert "_clone" not in names and not listed, f"{state_class.__name__} copies itself by hand"


def test_replaced_makes_a_new_tuple_and_refuses_an_index_out_of_range() -> None:
    """``replaced`` changes one entry of a new tuple, counts a negative index from the end, and leaves the
    tuple it was given alone; an index out of range is an ``IndexError`` (never a longer tuple)."""
    values = (1, 2, 3)
    assert replaced(values, 0, 9) == (9, 2, 3)
    assert replaced(values, -1, 9) == (1, 2, 9)
    assert values == (1, 2, 3)
    with pytest.raises(IndexError):
        replaced(values, 3, 9)


def test_event_cache_memo_makes_each_event_once_and_verifies_under_the_test_suite() -> None:
    """``EventCache.memo``: the arguments are the key. Without ``verify`` an event is made once per
    arguments; with it (the test suite's setting) a maker that reads anything besides its arguments fails."""
    made: list[int] = []
    suffix = ["!"]

    def make(face: int) -> Event:
        made.append(face)
        return Event("die", f"rolls {face}{suffix[0]}", "Roll")

    previous = EventCache.verify
    try:
        EventCache.verify = False
        fast = EventCache().memo(make)
        assert fast(3) is fast(3) and fast(4).text == "rolls 4!"
        assert made == [3, 4]
        EventCache.verify = True
        checked = EventCache().memo(make)
        assert checked(5) is checked(5)
        suffix[0] = "?"
        with pytest.raises(RuntimeError, match="does not determine its event"):
            checked(5)
    finally:
        EventCache.verify = previous
