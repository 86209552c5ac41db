"""A state's fields, declared once, and the one rule by which ``apply`` copies them.

A game's state class lists its fields as class annotations and nothing else: no ``__slots__``, no copy
method, no copy-on-write bookkeeping::

    class MyState(State):
        stage: Stage
        positions: list[int]          # a list: copied on every apply, change it in place
        hands: tuple[Hand, ...]       # anything else: shared, so replace it, never change it

**The copy rule.** ``apply`` copies the position by copying every *list* field (shallowly: the
items of a list are immutable values) and sharing every other field, which holds immutable values
(ints, strings, tuples, frozensets, enums, frozen dataclasses) and is changed by assigning a new value
(``replaced`` for one entry of a tuple). Lists are for the few fields that change on most actions;
tuples for the rest, which then cost nothing to copy.

Both builds copy a state with a ``_clone`` method written from the declarations by
``clone_method_source``: the interpreted build when the class is created (``install_clone``, called
from ``State.__init_subclass__``), the compiled build when it compiles the class (``slipstream._native``
reads the declarations from the source with ``declarations_in_source``). Standard library only.
"""

from __future__ import annotations

import ast
from typing import Any, TypeVar

T = TypeVar("T")

ENGINE_FIELDS = frozenset({"game", "seed", "ply", "events", "_history", "_legal_cache"})
"""The fields the engine's ``State`` keeps for every game (not declared by the game)."""

_DECLARED: dict[type, tuple[tuple[str, bool], ...]] = {}


def replaced(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with entry ``index`` replaced by ``value`` (a new tuple; ``values`` is unchanged).

    Through a list: half the work of joining two slices around the value (measured), and an index out of
    range is an ``IndexError`` instead of a longer tuple."""
    items = list(values)
    items[index] = value
    return tuple(items)


def slots(annotations: dict[str, Any]) -> tuple[str, ...]:
    """A state class's ``__slots__``, derived from its own annotations in its body::

        class MyState(State):
            turn: int
            ...
            __slots__ = slots(__annotations__)

    Fixed attribute slots are faster to read than an instance dictionary in the interpreted build (the
    compiled build lays its classes out natively either way). Class variables are left out.
    """
    return tuple(name for name, annotation in annotations.items()
                 if name not in ENGINE_FIELDS and not _is_class_var(annotation))


def _is_list(annotation: object) -> bool:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", repr(annotation))
    return text == "list" or text.startswith(("list[", "List["))


def _is_class_var(annotation: object) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar", "Final", "typing.Final"))


def declared_fields(cls: type) -> tuple[tuple[str, bool], ...]:
    """``(name, is_list)`` for every field the state class and its game bases declare, in order.

    Read from the class annotations (an interpreted class); a compiled class keeps none at run time,
    and its copy method is generated at build time instead, so this returns ``()`` for it.
    """
    cached = _DECLARED.get(cls)
    if cached is not None:
        return cached
    seen: dict[str, bool] = {}
    for klass in reversed(cls.__mro__):
        if klass.__module__.startswith("slipstream.engine") or klass is object:
            continue
        for name, annotation in vars(klass).get("__annotations__", {}).items():
            if name in ENGINE_FIELDS or _is_class_var(annotation):
                continue
            seen[name] = _is_list(annotation)
    result = _DECLARED[cls] = tuple(seen.items())
    return result


def _native_fields(cls: type) -> tuple[str, ...]:
    names: tuple[str, ...] = getattr(cls, "__mypyc_attrs__", ())
    return tuple(n for n in names if n not in ENGINE_FIELDS and n != "__dict__")


def missing_fields(state: object) -> list[str]:
    """The declared fields an initial state left unset (a game's ``_initial_state`` must set them all)."""
    cls = type(state)
    names = [name for name, _ in declared_fields(cls)] or list(_native_fields(cls))
    return [name for name in names if not hasattr(state, name)]


def copy_declared(state: T) -> T:
    """A copy of ``state`` by the copy rule: list fields copied, every other field shared.

    The general version of the ``_clone`` every state class gets written for it (``install_clone``,
    the compiled build): by the declarations, or by the values for a compiled class that keeps none.
    Only the game's fields: the engine's own (game, seed, ply, history) are set by its caller.
    """
    cls = type(state)
    new = cls()
    declared = declared_fields(cls) or tuple((name, False) for name in _native_fields(cls))
    for name, is_list in declared:
        if hasattr(state, name):
            value: Any = getattr(state, name)
            setattr(new, name, value[:] if is_list or type(value) is list else value)
    return new


def declarations_in_source(source: str, base: str = "State") -> dict[str, list[tuple[str, bool]]]:
    """For each class in ``source`` that derives from ``base`` directly (``State`` or ``State["MyGame"]``):
    its declared fields, as ``declared_fields`` reads them (for the compiled build, which generates the copy
    method)."""
    out: dict[str, list[tuple[str, bool]]] = {}
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef):
            continue
        if not any(_names_class(b.value if isinstance(b, ast.Subscript) else b, base) for b in node.bases):
            continue
        fields: list[tuple[str, bool]] = []
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                annotation = ast.unparse(item.annotation)
                if item.target.id in ENGINE_FIELDS or _is_class_var(annotation):
                    continue
                fields.append((item.target.id, _is_list(annotation)))
        out[node.name] = fields
    return out


def _names_class(node: ast.expr, name: str) -> bool:
    return (isinstance(node, ast.Name) and node.id == name) or (isinstance(node, ast.Attribute) and node.attr == name)


def install_clone(cls: type) -> None:
    """Give an interpreted state class the ``_clone`` its declarations call for (at class creation).

    A copy written field by field keeps the instance's attributes in CPython's fast inline layout, which
    a copy of ``__dict__`` would give up. A class that defines ``_clone`` itself keeps it.
    """
    if "_clone" in vars(cls):
        return
    fields = list(declared_fields(cls))
    namespace: dict[str, Any] = {cls.__name__: cls}
    exec(compile(clone_method_source(cls.__name__, fields, indent=""), f"<{cls.__qualname__}._clone>", "exec"),
         namespace)
    clone = namespace["_clone"]
    clone.__qualname__ = f"{cls.__qualname__}._clone"
    setattr(cls, "_clone", clone)  # noqa: B010 - the engine writes the method the declarations imply


def clone_method_source(class_name: str, fields: list[tuple[str, bool]], indent: str = "    ") -> str:
    """The text of a ``_clone`` method for ``class_name`` that applies the copy rule field by field."""
    lines = [f"{indent}def _clone(self) -> {class_name}:",
             f'{indent}    """Generated at build time from the declared fields (slipstream.engine.fields)."""',
             f"{indent}    new = {class_name}()"]
    for name, is_list in fields:
        lines.append(f"{indent}    new.{name} = self.{name}{'[:]' if is_list else ''}")
    lines.append(f"{indent}    return new")
    return "\n".join(lines) + "\n"


_MUTABLE = (list, dict, set, bytearray)


def _holds_mutable(value: object) -> bool:
    if isinstance(value, _MUTABLE):
        return True
    if isinstance(value, (tuple, frozenset)):
        return any(_holds_mutable(item) for item in value)
    return False


def copy_rule_problems(state: object) -> list[str]:
    """Where ``state`` breaks the copy rule: a shared field (or a list's item) holding something mutable,
    which a later apply could change under every state that shares it. For the conformance suite; a
    compiled class keeps no declarations at run time, so it is checked in the interpreted build."""
    problems: list[str] = []
    for name, is_list in declared_fields(type(state)):
        value = getattr(state, name, None)
        if is_list:
            if not isinstance(value, list):
                problems.append(f"{name} is declared a list but holds {type(value).__name__}")
            elif any(_holds_mutable(item) for item in value):
                problems.append(f"the list {name} holds a mutable item (items are shared between states)")
        elif _holds_mutable(value):
            problems.append(f"{name} is shared between states but holds something mutable: {value!r:.80}")
    return problems
