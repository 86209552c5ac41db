"""The compiled build: which modules mypyc compiles, and a guard that never runs a stale one.

``setup.py`` compiles ``MODULES`` with mypyc (``SLIPSTREAM_PURE=1`` at install time skips it) and writes
``RECORD``: the SHA-256 of each module's source as it was compiled. The sources stay the reference and
the fallback. When the package is imported, ``activate`` compares the record with the sources beside
it; if any differs (a source edited since the build), if the record is missing, or if
``SLIPSTREAM_PURE=1`` is set, every compiled module is loaded from its ``.py`` file instead, all of
them together (compiled and interpreted modules of one build are never mixed).

Standard library only: ``setup.py`` loads this file on its own, before the package can be imported.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

MODULES: tuple[str, ...] = (
    "slipstream.engine.chance",
    "slipstream.engine.fields",
    "slipstream.engine.game",
    "slipstream.engine.observation",
    "slipstream.games.scrap_racer.game",
    "slipstream.games.scrap_racer.notation",
    "slipstream.games.scrap_racer.observation",
    "slipstream.games.scrap_racer.rules",
    "slipstream.games.scrap_racer.state",
    "slipstream.games.scrap_racer.types",
    "slipstream.games.brc_grand_prix.game",
    "slipstream.games.brc_grand_prix.notation",
    "slipstream.games.brc_grand_prix.observation",
    "slipstream.games.brc_grand_prix.rules",
    "slipstream.games.brc_grand_prix.state",
    "slipstream.games.brc_grand_prix.types",
    "slipstream.games.rev_it_up.game",
    "slipstream.games.rev_it_up.notation",
    "slipstream.games.rev_it_up.observation",
    "slipstream.games.rev_it_up.rules",
    "slipstream.games.rev_it_up.state",
    "slipstream.games.rev_it_up.types",
    "slipstream.games.rush_n_crush.game",
    "slipstream.games.rush_n_crush.metrics",
    "slipstream.games.rush_n_crush.notation",
    "slipstream.games.rush_n_crush.observation",
    "slipstream.games.rush_n_crush.rules",
    "slipstream.games.rush_n_crush.state",
    "slipstream.games.rush_n_crush.types",
    "slipstream.games.highway_heist.effects",
    "slipstream.games.highway_heist.game",
    "slipstream.games.highway_heist.metrics",
    "slipstream.games.highway_heist.notation",
    "slipstream.games.highway_heist.observation",
    "slipstream.games.highway_heist.rules",
    "slipstream.games.highway_heist.state",
    "slipstream.games.highway_heist.turn",
    "slipstream.games.highway_heist.types",
)
"""The hot modules: the engine's state machinery, each game's rules and its declared observation (written
for every step an AI bridge takes), and the position scores its bot calls thousands of times a move (Rush
'n' Crush's, Highway Heist's metrics); not content, views or the bots themselves."""

RECORD = "_native_build.json"
"""Written beside this file by a successful compiled build."""

PACKAGE_DIR = Path(__file__).resolve().parent

mode = "pure"
"""``"compiled"``, ``"pure"`` (no compiled build here), ``"pure (SLIPSTREAM_PURE=1)"`` or
``"pure (stale build: ...)"``; set by ``activate``."""


def source_of(module: str, package_dir: Path = PACKAGE_DIR) -> Path:
    """The ``.py`` file of ``slipstream.x.y`` under the package directory."""
    parts = module.split(".")[1:]
    return package_dir.joinpath(*parts[:-1], parts[-1] + ".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled_files(module: str, package_dir: Path = PACKAGE_DIR) -> list[Path]:
    """The extension files built for ``module`` (none in a pure install)."""
    src = source_of(module, package_dir)
    stem = src.with_suffix("")
    return [p for suffix in importlib.machinery.EXTENSION_SUFFIXES if (p := Path(f"{stem}{suffix}")).exists()]


def status(package_dir: Path = PACKAGE_DIR, environ: dict[str, str] | None = None) -> tuple[str, bool]:
    """(mode, whether the sources must be loaded in place of the compiled modules)."""
    env = os.environ if environ is None else environ
    built = {m: bool(compiled_files(m, package_dir)) for m in MODULES}
    if not any(built.values()):
        return "pure", False
    if env.get("SLIPSTREAM_PURE", "") not in ("", "0"):
        return "pure (SLIPSTREAM_PURE=1)", True
    try:
        record = json.loads((package_dir / RECORD).read_text())
        recorded = dict(record["sources"])
    except (OSError, ValueError, KeyError, TypeError):
        return f"pure (stale build: no valid {RECORD})", True
    for module in MODULES:
        if not built[module]:
            return f"pure (stale build: {module} was not compiled)", True
        if recorded.get(module) != digest(source_of(module, package_dir)):
            return f"pure (stale build: {module} changed since it was compiled; rebuild with make)", True
    return "compiled", False


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules' ``.py`` files, ahead of the extension modules beside them."""

    def __init__(self, sources: dict[str, Path]) -> None:
        self.sources = sources

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        source = self.sources.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def activate() -> str:
    """Decide the mode once, before any compiled module is imported; return it."""
    global mode
    mode, use_sources = status()
    if use_sources and not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder({m: source_of(m) for m in MODULES}))
        if mode.startswith("pure (stale"):
            warnings.warn(f"slipstream runs its pure-Python modules: {mode[6:-1]}", RuntimeWarning, stacklevel=2)
    return mode


def _fields_module(package_dir: Path) -> ModuleType:
    """``slipstream.engine.fields``, loaded on its own (it is standard library only), for the build."""
    spec = importlib.util.spec_from_file_location("_slipstream_fields", package_dir / "engine" / "fields.py")
    if spec is None or spec.loader is None:
        raise ImportError("slipstream/engine/fields.py not found")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATED_MARK = "Generated at build time from the declared fields"


def with_generated_copies(source: str, package_dir: Path = PACKAGE_DIR) -> str:
    """``source`` with a ``_clone`` method written into each ``State`` subclass that declares fields.

    The interpreted build writes the same method when the class is created (``engine.fields.install_clone``);
    a compiled class keeps no annotations at run time, and a generic copy by attribute name costs four
    times a written one, so the build writes the method from the declarations read in the source, with
    the same ``clone_method_source``, into the text it compiles. The source file itself is never changed.
    """
    fields = _fields_module(package_dir)
    declared = fields.declarations_in_source(source)
    if not declared:
        return source
    lines = source.splitlines(keepends=True)
    tree = ast.parse(source)
    inserts: list[tuple[int, str]] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in declared and declared[node.name]:
            if any(isinstance(item, ast.FunctionDef) and item.name == "_clone" for item in node.body):
                continue  # tests/engine/test_fields.py refuses a game that writes its own
            end = node.end_lineno or node.lineno
            inserts.append((end, "\n" + fields.clone_method_source(node.name, declared[node.name])))
    for end, text in sorted(inserts, reverse=True):
        lines.insert(end, text)
    return "".join(lines)


def write_record(package_dir: Path, sources: dict[str, str]) -> None:
    """Called by ``setup.py`` after every module compiled: the record of what was compiled."""
    (package_dir / RECORD).write_text(json.dumps({"sources": sources}, indent=1, sort_keys=True) + "\n")
